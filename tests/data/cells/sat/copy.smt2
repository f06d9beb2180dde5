; for (i = 0; i < n; i++) b[i] = a[i]; then a[x] = b[x] for every 0 <= x < n.
; Invariant: forall k. 0 <= k < i -> b[k] = a[k] (two cells read at one index).
(set-logic HORN)
(declare-fun copy ((Array Int Int) (Array Int Int) Int Int) Bool)
(declare-fun done ((Array Int Int) (Array Int Int) Int) Bool)
(assert (forall ((a (Array Int Int)) (b (Array Int Int)) (n Int)) (copy a b 0 n)))
(assert (forall ((a (Array Int Int)) (b (Array Int Int)) (i Int) (n Int))
  (=> (and (copy a b i n) (< i n)) (copy a (store b i (select a i)) (+ i 1) n))))
(assert (forall ((a (Array Int Int)) (b (Array Int Int)) (i Int) (n Int))
  (=> (and (copy a b i n) (>= i n)) (done a b n))))
(assert (forall ((a (Array Int Int)) (b (Array Int Int)) (x Int) (n Int))
  (=> (and (done a b n) (>= x 0) (< x n) (not (= (select a x) (select b x)))) false)))
(check-sat)
