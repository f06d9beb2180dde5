; Head arguments that are terms, and a ground fact.
; p(x, y): y = 2x. Invariant: y = 2 * x.
(set-logic HORN)
(declare-fun p (Int Int) Bool)
(assert (p 0 0))
(assert (forall ((x Int) (y Int)) (=> (and (p x y) (< x 3)) (p (+ x 1) (+ y 2)))))
(assert (forall ((x Int) (y Int)) (=> (and (p x y) (not (= y (* 2 x)))) false)))
(check-sat)
