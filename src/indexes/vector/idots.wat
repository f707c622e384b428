;; The int8 dot-product kernel of the vector table (indexes/vector/vector-kernel.ts DOTS_WASM, the
;; CodeArena's `idots`): for each of `n` rows of `dims` int8 codes at byte offset `data`,
;; out[r] = dot(row, q) as an exact i32 (|sum| <= dims * 127 * 127), stored at byte offset `out` + 4r.
;; The query is `dims` int8 codes at byte offset `q`. Needs dims % 16 === 0 and n >= 0; all offsets
;; in the imported memory `e.m`. Each 16-code step widens to i16 and takes i32x4.dot_i16x8_s of the
;; low and the high halves, so no product or partial sum overflows.
;; Assembled by `node scripts/build-kernels.mjs` (wabt, SIMD on), which checks or (--write) replaces
;; the base64 bytes in vector-kernel.ts.
(module
  (type (func (param i32 i32 i32 i32 i32)))
  (import "e" "m" (memory 1))
  (func $idots (type 0) (param $q i32) (param $data i32) (param $n i32) (param $dims i32) (param $out i32)
    (local $r i32) (local $d i32) (local $row i32) (local $acc v128) (local $rv v128) (local $qv v128)
    ;; row := data (r starts at 0: locals are zero)
    local.get $data
    local.set $row
    block $done
      ;; no rows: nothing to score
      local.get $r
      local.get $n
      i32.ge_u
      br_if $done
      loop $rows
        ;; acc := 0; d := 0
        v128.const i32x4 0x00000000 0x00000000 0x00000000 0x00000000
        local.set $acc
        i32.const 0
        local.set $d
        loop $cols
          ;; rv := row[d .. d+16); qv := q[d .. d+16)   (16 int8 lanes)
          local.get $row
          local.get $d
          i32.add
          v128.load align=1
          local.set $rv
          local.get $q
          local.get $d
          i32.add
          v128.load align=1
          local.set $qv
          ;; acc += dot(low 8 of rv, low 8 of qv) + dot(high 8 of rv, high 8 of qv), as i16 pairs -> i32 lanes
          local.get $acc
          local.get $rv
          i16x8.extend_low_i8x16_s
          local.get $qv
          i16x8.extend_low_i8x16_s
          i32x4.dot_i16x8_s
          i32x4.add
          local.get $rv
          i16x8.extend_high_i8x16_s
          local.get $qv
          i16x8.extend_high_i8x16_s
          i32x4.dot_i16x8_s
          i32x4.add
          local.set $acc
          ;; d += 16; again while d < dims
          local.get $d
          i32.const 16
          i32.add
          local.tee $d
          local.get $dims
          i32.lt_u
          br_if $cols
        end
        ;; out[r] := lane0 + lane1 + lane2 + lane3 of acc
        local.get $out
        local.get $r
        i32.const 2
        i32.shl
        i32.add
        local.get $acc
        i32x4.extract_lane 0
        local.get $acc
        i32x4.extract_lane 1
        i32.add
        local.get $acc
        i32x4.extract_lane 2
        i32.add
        local.get $acc
        i32x4.extract_lane 3
        i32.add
        i32.store
        ;; row += dims; r += 1; again while r < n
        local.get $row
        local.get $dims
        i32.add
        local.set $row
        local.get $r
        i32.const 1
        i32.add
        local.tee $r
        local.get $n
        i32.lt_u
        br_if $rows
      end
    end)
  (export "idots" (func $idots)))
