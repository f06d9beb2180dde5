; Two "threads" add each other's value, i += j or j += i, five times each, in any order; neither
; value ever exceeds 144 (strict alternation from j reaches j = 89, then i = 55 + 89). The
; reachable states are finitely many, but no linear invariant bounds i and j by the step
; counters.
; Inductive invariant: the reachable states themselves (i, j <= fib(2 + a + b)).
(set-logic HORN)
(declare-fun s (Int Int Int Int) Bool)
(assert (forall ((i Int) (j Int) (a Int) (b Int))
  (=> (and (= i 1) (= j 1) (= a 0) (= b 0)) (s i j a b))))
(assert (forall ((i Int) (j Int) (a Int) (b Int) (i2 Int) (j2 Int) (a2 Int) (b2 Int) (turn Int))
  (=> (and (s i j a b)
           (or (and (= turn 0) (< a 5) (= i2 (+ i j)) (= j2 j) (= a2 (+ a 1)) (= b2 b))
               (and (= turn 1) (< b 5) (= j2 (+ j i)) (= i2 i) (= b2 (+ b 1)) (= a2 a))))
      (s i2 j2 a2 b2))))
(assert (forall ((i Int) (j Int) (a Int) (b Int)) (=> (and (s i j a b) (or (> i 144) (> j 144))) false)))
(check-sat)
