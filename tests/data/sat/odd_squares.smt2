(set-logic HORN)
; The sum of the first k odd numbers is k * k. Invariant:
; inv(k, n, s, o) := s = k * k ∧ o = 2 k + 1 ∧ 0 <= k <= n.
(declare-fun inv (Int Int Int Int) Bool)
(assert (forall ((n Int)) (=> (>= n 0) (inv 0 n 0 1))))
(assert (forall ((k Int) (n Int) (s Int) (o Int))
  (=> (and (inv k n s o) (< k n)) (inv (+ k 1) n (+ s o) (+ o 2)))))
(assert (forall ((k Int) (n Int) (s Int) (o Int))
  (=> (and (inv k n s o) (>= k n) (not (= s (* n n)))) false)))
(check-sat)
