; A three-stage shift register fed non-negative inputs: `z >= 0` holds, is not inductive
; (nothing bounds `y`), nor 2-inductive (nor `x`), but 3-inductive. The bad states have a
; local variable, which k-induction eliminates before it assumes the good states.
(set-logic HORN)
(declare-fun reg (Int Int Int) Bool)
(assert (forall ((x Int) (y Int) (z Int))
  (=> (and (= x 0) (= y 0) (= z 0)) (reg x y z))))
(assert (forall ((x Int) (y Int) (z Int) (i Int) (x1 Int) (y1 Int) (z1 Int))
  (=> (and (reg x y z) (>= i 0) (= x1 i) (= y1 x) (= z1 y)) (reg x1 y1 z1))))
(assert (forall ((x Int) (y Int) (z Int) (w Int))
  (=> (and (reg x y z) (= w (+ z 1)) (< w 1)) false)))
(check-sat)
