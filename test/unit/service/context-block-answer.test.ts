// The context block keeps the answer (issue 45): a long turn keeps the sentence with the values next
// to the question's words, and an acknowledgement or pleasantry never takes the bytes of content.
import { describe, expect, it } from 'vitest';
import { bestSentences, renderContextBlock } from '../../../src/service/recall/context-block.js';
import { isFiller, queryWeights } from '../../../src/indexes/evidence/evidence.js';
import { tokenize } from '../../../src/core/tokenize.js';

const terms = (q: string) => queryWeights(tokenize(q));

describe('the block keeps the answer', () => {
  it('a long turn keeps the sentence with the numbers beside the matching one', () => {
    const line =
      '- Sam: We settled the auth design today. Refresh tokens are stored in the token table with the user id and the device. ' +
      'Expiry for refresh is 7 days and 15 minutes for access. Next week we look at rate limiting for the login form.';
    const cut = bestSentences(line, 120, terms('how long do refresh tokens stay valid'));
    expect(cut).toContain('7 days');
    expect(cut).toContain('15 minutes');
  });

  it('a quoted literal or identifier counts as a specific', () => {
    const line =
      '- Ana: Good argument names matter to reviewers, who read argument names all day. ' +
      "So from now on, start argument names with 'x_'. It keeps them apart from locals in long functions.";
    const cut = bestSentences(line, 90, terms('argument names'));
    expect(cut).toContain("'x_'");
    expect(cut).not.toContain('reviewers');
  });

  it('acknowledgements and pleasantries are filler; short answers are not', () => {
    const q = terms('coffee on friday');
    for (const t of [
      '- Bo: Good.',
      '- Ana: Ready when you are.',
      'Thanks, sounds great!',
      "- Bo: Got it, I'll do that.",
    ])
      expect(isFiller(q, t)).toBe(true);
    for (const t of ['- Bo: Sure, at ten.', '- Sam: Congratulations, that took years.', '- Bo: Use x_ now.'])
      expect(isFiller(q, t)).toBe(false);
  });

  it('filler from another item never displaces a content line', () => {
    const q = terms('deploy window');
    const block = renderContextBlock(
      [
        {
          path: 'memory/2024-01-03.md',
          startLine: 4,
          endLine: 4,
          text: '- Lee: The deploy window moved to Tuesday.',
          score: 10,
          around: [
            { line: 3, text: '- Kim: Good.' },
            { line: 4, text: '- Lee: The deploy window moved to Tuesday.' },
            { line: 5, text: '- Kim: Ready when you are.' },
            { line: 6, text: '- Lee: It opens at 14:00 UTC, staging first.' },
          ],
        },
        {
          path: 'memory/2024-01-02.md',
          startLine: 8,
          endLine: 8,
          text: '- Kim: Thanks, sounds great!',
          score: 9.5,
        },
      ],
      130,
      { terms: q },
    ).text;
    expect(block).toContain('Tuesday');
    expect(block).toContain('14:00');
    expect(block).not.toContain('Ready when you are');
    expect(block).not.toContain('Good.');
    expect(block).not.toContain('sounds great');
  });

  it('an acknowledgement addressed by name ("Thanks, Mel!") is filler too', () => {
    const q = terms('stained glass window');
    for (const t of [
      '- Caroline: Thanks, Mel!',
      'Wow, Caroline!',
      'Hey Mel! How are you?',
      'Aww, thanks so much, Melanie!',
    ])
      expect(isFiller(q, t)).toBe(true);
    for (const t of ['- Bo: Thanks, see you at 10.', 'Thanks for the window, Mel.', '- Mel: Glass, Caroline!'])
      expect(isFiller(q, t)).toBe(false);
  });

  it('a cut line keeps its content sentence before its opening pleasantry', () => {
    // A line after the one that matched: none of its sentences holds a query word.
    const line =
      '- Caroline: Thanks so much, Mel! I made this for a local church to show my own journey and how we grow. ' +
      'It took me most of the spring.';
    const cut = bestSentences(line, 100, terms('what did she make for the church'));
    expect(cut).toContain('local church');
    expect(cut).not.toContain('Thanks so much');
    const none = bestSentences(line, 100, terms('pottery class'));
    expect(none).toContain('I made this');
    expect(none).not.toContain('Thanks so much');
  });
});
