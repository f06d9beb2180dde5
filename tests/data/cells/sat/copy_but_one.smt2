; for (i = 0; i < n; i++) if (i != z) b[i] = a[i]; then a[x] = b[x] for every 0 <= x < n but z.
; The step's array is merged under a disjunction (the `if`), not defined by one equality.
; Invariant: forall k. 0 <= k < i and k != z -> b[k] = a[k].
(set-logic HORN)
(declare-fun copy ((Array Int Int) (Array Int Int) Int Int Int) Bool)
(declare-fun done ((Array Int Int) (Array Int Int) Int Int) Bool)
(assert (forall ((a (Array Int Int)) (b (Array Int Int)) (n Int) (z Int)) (copy a b 0 n z)))
(assert (forall ((a (Array Int Int)) (b (Array Int Int)) (c (Array Int Int)) (i Int) (n Int) (z Int))
  (=> (and (copy a b i n z) (< i n)
           (or (and (= i z) (= c b))
               (and (not (= i z)) (= c (store b i (select a i))))))
      (copy a c (+ i 1) n z))))
(assert (forall ((a (Array Int Int)) (b (Array Int Int)) (i Int) (n Int) (z Int))
  (=> (and (copy a b i n z) (>= i n)) (done a b n z))))
(assert (forall ((a (Array Int Int)) (b (Array Int Int)) (x Int) (n Int) (z Int))
  (=> (and (done a b n z) (>= x 0) (< x n) (not (= x z)) (not (= (select a x) (select b x))))
      false)))
(check-sat)
