; for (i = 0; i < 10; i++) a[i] = 1; a[5] = 2; then a[x] = 1 for every 0 <= x < 10: fails at
; x = 5 (the write after the loop).
(set-logic HORN)
(declare-fun fill ((Array Int Int) Int) Bool)
(declare-fun done ((Array Int Int)) Bool)
(assert (forall ((a (Array Int Int))) (fill a 0)))
(assert (forall ((a (Array Int Int)) (i Int))
  (=> (and (fill a i) (< i 10)) (fill (store a i 1) (+ i 1)))))
(assert (forall ((a (Array Int Int)) (i Int))
  (=> (and (fill a i) (>= i 10)) (done (store a 5 2)))))
(assert (forall ((a (Array Int Int)) (x Int))
  (=> (and (done a) (>= x 0) (< x 10) (not (= (select a x) 1))) false)))
(check-sat)
