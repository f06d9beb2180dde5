; for (i = 0; i < n - 1; i++) a[i] = 7; then a[x] = 7 for every 0 <= x < n: fails at
; x = n - 1 whenever a starts with something else there (n = 1, a[0] = 0).
(set-logic HORN)
(declare-fun fill ((Array Int Int) Int Int) Bool)
(declare-fun done ((Array Int Int) Int) Bool)
(assert (forall ((a (Array Int Int)) (n Int)) (fill a 0 n)))
(assert (forall ((a (Array Int Int)) (i Int) (n Int))
  (=> (and (fill a i n) (< i (- n 1))) (fill (store a i 7) (+ i 1) n))))
(assert (forall ((a (Array Int Int)) (i Int) (n Int))
  (=> (and (fill a i n) (>= i (- n 1))) (done a n))))
(assert (forall ((a (Array Int Int)) (x Int) (n Int))
  (=> (and (done a n) (>= x 0) (< x n) (not (= (select a x) 7))) false)))
(check-sat)
