; Non-linear, tree-shaped derivation: fib(n, r); assert no r = 3. fib(4) = 3.
(set-logic HORN)
(declare-fun fib (Int Int) Bool)
(assert (fib 0 0))
(assert (fib 1 1))
(assert (forall ((n Int) (a Int) (b Int))
  (=> (and (>= n 2) (fib (- n 1) a) (fib (- n 2) b)) (fib n (+ a b)))))
(assert (forall ((n Int) (r Int)) (=> (and (fib n r) (= r 3)) false)))
(check-sat)
