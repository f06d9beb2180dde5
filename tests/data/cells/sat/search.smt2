; i = 0; while (i < n && a[i] != e) i++; then a[x] != e for every 0 <= x < i.
; Invariant: forall k. 0 <= k < i -> a[k] != e.
(set-logic HORN)
(declare-fun find ((Array Int Int) Int Int Int) Bool)
(declare-fun done ((Array Int Int) Int Int) Bool)
(assert (forall ((a (Array Int Int)) (n Int) (e Int)) (find a 0 n e)))
(assert (forall ((a (Array Int Int)) (i Int) (n Int) (e Int))
  (=> (and (find a i n e) (< i n) (not (= (select a i) e))) (find a (+ i 1) n e))))
(assert (forall ((a (Array Int Int)) (i Int) (n Int) (e Int))
  (=> (and (find a i n e) (or (>= i n) (= (select a i) e))) (done a i e))))
(assert (forall ((a (Array Int Int)) (i Int) (x Int) (e Int))
  (=> (and (done a i e) (>= x 0) (< x i) (= (select a x) e)) false)))
(check-sat)
