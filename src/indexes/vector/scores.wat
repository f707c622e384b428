;; The f32 dot-product kernel of the vector table (indexes/vector/vector-kernel.ts SCORES_WASM, the
;; Arena's `scores`): for each of `n` rows of `dims` f32 at byte offset `data`, out[r] = dot(row, q),
;; stored as f32 at byte offset `out` + 4r. The query is `dims` f32 at byte offset `q`. Needs
;; dims % 8 === 0 (two 4-lane accumulators per 32-byte step) and n >= 0; all offsets in the imported
;; memory `e.m`. Unit vectors make the dot product the cosine.
;; Assembled by `node scripts/build-kernels.mjs` (wabt, SIMD on), which checks or (--write) replaces
;; the base64 bytes in vector-kernel.ts.
(module
  (type (func (param i32 i32 i32 i32 i32)))
  (import "e" "m" (memory 1))
  (func $scores (type 0) (param $q i32) (param $data i32) (param $n i32) (param $dims i32) (param $out i32)
    (local $r i32) (local $d i32) (local $acc0 v128) (local $acc1 v128) (local $row i32) (local $rowbytes i32)
    ;; rowbytes := dims * 4; row := data; r := 0
    local.get $dims
    i32.const 2
    i32.shl
    local.set $rowbytes
    local.get $data
    local.set $row
    i32.const 0
    local.set $r
    block $done
      ;; no rows: nothing to score
      local.get $r
      local.get $n
      i32.ge_u
      br_if $done
      loop $rows
        ;; acc0 := acc1 := 0; d := 0
        v128.const i32x4 0x00000000 0x00000000 0x00000000 0x00000000
        local.set $acc0
        v128.const i32x4 0x00000000 0x00000000 0x00000000 0x00000000
        local.set $acc1
        i32.const 0
        local.set $d
        loop $cols
          ;; acc0 += row[d .. d+16) * q[d .. d+16)   (4 f32 lanes)
          local.get $acc0
          local.get $row
          local.get $d
          i32.add
          v128.load align=4
          local.get $q
          local.get $d
          i32.add
          v128.load align=4
          f32x4.mul
          f32x4.add
          local.set $acc0
          ;; acc1 += row[d+16 .. d+32) * q[d+16 .. d+32)
          local.get $acc1
          local.get $row
          local.get $d
          i32.add
          v128.load offset=16 align=4
          local.get $q
          local.get $d
          i32.add
          v128.load offset=16 align=4
          f32x4.mul
          f32x4.add
          local.set $acc1
          ;; d += 32 bytes; again while d < rowbytes
          local.get $d
          i32.const 32
          i32.add
          local.tee $d
          local.get $rowbytes
          i32.lt_u
          br_if $cols
        end
        ;; out[r] := lane0 + lane1 + lane2 + lane3 of (acc0 + acc1), summed left to right
        local.get $out
        local.get $r
        i32.const 2
        i32.shl
        i32.add
        local.get $acc0
        local.get $acc1
        f32x4.add
        local.tee $acc0
        f32x4.extract_lane 0
        local.get $acc0
        f32x4.extract_lane 1
        f32.add
        local.get $acc0
        f32x4.extract_lane 2
        f32.add
        local.get $acc0
        f32x4.extract_lane 3
        f32.add
        f32.store
        ;; row += rowbytes; r += 1; again while r < n
        local.get $row
        local.get $rowbytes
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
  (export "scores" (func $scores)))
