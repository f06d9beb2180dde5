; for (i = 0; i < n; i++) a[i] = i + 3; then a[x] > x for every 0 <= x < n.
; Invariant: forall k. 0 <= k < i -> a[k] = k + 3.
(set-logic HORN)
(declare-fun fill ((Array Int Int) Int Int) Bool)
(declare-fun done ((Array Int Int) Int) Bool)
(assert (forall ((a (Array Int Int)) (n Int)) (fill a 0 n)))
(assert (forall ((a (Array Int Int)) (i Int) (n Int))
  (=> (and (fill a i n) (< i n)) (fill (store a i (+ i 3)) (+ i 1) n))))
(assert (forall ((a (Array Int Int)) (i Int) (n Int))
  (=> (and (fill a i n) (>= i n)) (done a n))))
(assert (forall ((a (Array Int Int)) (x Int) (n Int))
  (=> (and (done a n) (>= x 0) (< x n) (<= (select a x) x)) false)))
(check-sat)
