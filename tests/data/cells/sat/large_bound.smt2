; int a[100000]; for (i = 0; i < 100000; i++) a[i] = 43; then every a[x] = 43 (x < 100000).
; Invariant: loop: i <= 100000 and forall k. 0 <= k < i -> a[k] = 43. PDR over the cells
; alone blocks one value of i at a time here; the range 0 <= k < i is what it does not build.
(set-logic HORN)
(declare-fun loop ((Array Int Int) Int) Bool)
(declare-fun done ((Array Int Int)) Bool)
(assert (forall ((a (Array Int Int))) (loop a 0)))
(assert (forall ((a (Array Int Int)) (i Int))
  (=> (and (loop a i) (< i 100000)) (loop (store a i 43) (+ i 1)))))
(assert (forall ((a (Array Int Int)) (i Int))
  (=> (and (loop a i) (>= i 100000)) (done a))))
(assert (forall ((a (Array Int Int)) (x Int))
  (=> (and (done a) (>= x 0) (< x 100000) (not (= (select a x) 43))) false)))
(check-sat)
