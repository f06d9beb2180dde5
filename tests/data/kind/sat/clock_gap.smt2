; A clock `a` over the reals advanced by a non-negative delay `d`; `c` keeps its old value and
; `b` the old `c`. `b <= a + 1` holds: `b` is a value `a` had two steps before. It is not
; inductive (nothing relates `c` to `a`) but 2-inductive.
(set-logic HORN)
(declare-fun clk (Real Real Real) Bool)
(assert (forall ((a Real) (b Real) (c Real))
  (=> (and (= a 0.0) (= b 0.0) (= c 0.0)) (clk a b c))))
(assert (forall ((a Real) (b Real) (c Real) (d Real) (a1 Real) (b1 Real) (c1 Real))
  (=> (and (clk a b c) (>= d 0.0) (= a1 (+ a d)) (= c1 a) (= b1 c)) (clk a1 b1 c1))))
(assert (forall ((a Real) (b Real) (c Real))
  (=> (and (clk a b c) (> b (+ a 1.0))) false)))
(check-sat)
