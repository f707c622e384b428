-- Drives the gitmem language server from a real Neovim (0.7.x API) and writes what it saw as JSON.
-- Plumbing failures exit 3; every content assertion is made by test/lsp/neovim.test.ts.
-- Run: nvim --headless --clean -n -c "luafile test/nvim/lsp_check.lua"
-- Env: LSP_CHECK_CMD (JSON array: server command), LSP_CHECK_FILE (file to :edit), LSP_CHECK_ROOT
--      (workspace folder), LSP_CHECK_OUT (JSON report path), LSP_CHECK_TIMEOUT_MS (per wait, default 10000).
local env = vim.env
local timeout = tonumber(env.LSP_CHECK_TIMEOUT_MS or '') or 10000
local EDIT_FROM, EDIT_TO = 'decison', 'decision'

local function now_ms()
  local s, us = vim.loop.gettimeofday()
  return s * 1000 + math.floor(us / 1000)
end

local report = { nvim = vim.version(), t = { script_start = now_ms() }, publish = {}, log = {}, statuses = {} }

-- 0-based byte column of the first `needle` on a line of the buffer, with the line number.
local function find(bufnr, needle)
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, true)
  for i, s in ipairs(lines) do
    local c = s:find(needle, 1, true)
    if c then return i - 1, c - 1, s end
  end
  error('fixture has no ' .. needle, 0)
end

local function main()
  local cmd = vim.fn.json_decode((assert(env.LSP_CHECK_CMD, 'LSP_CHECK_CMD not set')))
  vim.cmd('edit ' .. vim.fn.fnameescape((assert(env.LSP_CHECK_FILE, 'LSP_CHECK_FILE not set'))))
  local bufnr = vim.api.nvim_get_current_buf()
  report.filetype = vim.bo[bufnr].filetype

  local client_id = vim.lsp.start_client({
    name = 'gitmem',
    cmd = cmd,
    root_dir = assert(env.LSP_CHECK_ROOT, 'LSP_CHECK_ROOT not set'),
    flags = { debounce_text_changes = 0 },
    handlers = {
      ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
        report.t.first_publish = report.t.first_publish or now_ms()
        table.insert(report.publish, result)
        return vim.lsp.handlers['textDocument/publishDiagnostics'](err, result, ctx, config)
      end,
      ['window/logMessage'] = function(_, result) table.insert(report.log, result.message) end,
      ['gitmem/ready'] = function(_, result) report.ready = result; report.t.ready = now_ms() end,
      ['gitmem/status'] = function(_, result) table.insert(report.statuses, result.state) end,
    },
    on_exit = function(code, signal) report.server_exit = { code = code, signal = signal } end,
  })
  assert(client_id, 'vim.lsp.start_client() returned nil: server command did not start')
  assert(vim.lsp.buf_attach_client(bufnr, client_id), 'buf_attach_client failed')

  vim.wait(timeout, function() return report.server_exit ~= nil or (report.ready ~= nil and #vim.diagnostic.get(bufnr) > 0) end, 10)
  if report.ready == nil or #vim.diagnostic.get(bufnr) == 0 then
    error(('no gitmem/ready or no diagnostics within %d ms (publishes: %d, ready: %s, server_exit: %s)')
      :format(timeout, #report.publish, vim.inspect(report.ready), vim.inspect(report.server_exit)), 0)
  end
  report.t.diagnostics = now_ms()
  report.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do   -- Neovim's view: 0-based BYTE columns
    table.insert(report.diagnostics, { lnum = d.lnum, col = d.col, end_lnum = d.end_lnum,
      end_col = d.end_col, severity = d.severity, code = d.code, source = d.source, message = d.message })
  end
  table.sort(report.diagnostics, function(a, b) return a.lnum < b.lnum end)

  local client = assert(vim.lsp.get_client_by_id(client_id), 'client vanished')
  report.offset_encoding = client.offset_encoding

  -- Hover on the entry id of `[[use-lunr]]` (after an emoji: byte and UTF-16 columns differ).
  local row, col = find(bufnr, '[[use-lunr]]')
  vim.api.nvim_win_set_cursor(0, { row + 1, col + 3 })
  local params = vim.lsp.util.make_position_params()
  local res, err = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', params, timeout)
  assert(res and res[client_id], 'hover: ' .. tostring(err or 'no response'))
  report.hover = { sent = params.position, byte_col = col + 3, result = res[client_id].result }

  -- Completion at the end of the `type:` value.
  local trow, _, tline = find(bufnr, 'type: ')
  vim.api.nvim_win_set_cursor(0, { trow + 1, #tline })
  local cparams = vim.lsp.util.make_position_params()
  res, err = vim.lsp.buf_request_sync(bufnr, 'textDocument/completion', cparams, timeout)
  assert(res and res[client_id], 'completion: ' .. tostring(err or 'no response'))
  report.completion = { sent = cparams.position, result = res[client_id].result }

  -- The custom request: client.request_sync returns { err = ..., result = ... }
  local r, rerr = client.request_sync('gitmem/recall', { query = 'lunr keyword recall', limit = 3 }, timeout, bufnr)
  assert(r, 'gitmem/recall: ' .. tostring(rerr or 'no response'))
  assert(not r.err, 'gitmem/recall error: ' .. vim.inspect(r.err))
  report.recall = r.result

  -- Incremental didChange in UTF-16: fix the type, wait for the re-publish.
  local erow, ecol = find(bufnr, EDIT_FROM)
  local before = #vim.diagnostic.get(bufnr)
  vim.api.nvim_buf_set_text(bufnr, erow, ecol, erow, ecol + #EDIT_FROM, { EDIT_TO })
  vim.wait(timeout, function() return #vim.diagnostic.get(bufnr) < before end, 10)
  report.after_edit = { diagnostics = {} }
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do table.insert(report.after_edit.diagnostics, { lnum = d.lnum, col = d.col, code = d.code }) end

  client.stop()
  vim.wait(3000, function() return client.is_stopped() end, 10)
  vim.wait(3000, function() return report.server_exit ~= nil end, 10)
end

local ok, err = xpcall(main, debug.traceback)
report.ok = ok
report.error = (not ok) and tostring(err) or nil
report.t.done = now_ms()
local wok, werr = pcall(function()
  vim.fn.writefile({ vim.fn.json_encode(report) }, env.LSP_CHECK_OUT)
end)
if ok and wok then
  vim.cmd('qa!')
else
  io.stderr:write('lsp_check FAILED: ' .. tostring(err or werr) .. '\n')
  vim.cmd('cquit 3')
end
