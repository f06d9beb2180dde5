; Fibonacci with two recursive calls (a non-linear clause); the query claims fib(20) is not
; 6765. Failing run: the call tree of fib(20) (its DAG has 21 distinct facts).
(set-logic HORN)
(declare-fun fib (Int Int) Bool)
(assert (fib 0 0))
(assert (fib 1 1))
(assert (forall ((n Int) (a Int) (b Int))
  (=> (and (>= n 2) (fib (- n 1) a) (fib (- n 2) b)) (fib n (+ a b)))))
(assert (forall ((r Int)) (=> (and (fib 20 r) (= r 6765)) false)))
(check-sat)
