; Hints over the input's predicates: the conjunct over z is lost with z, mid's with mid.
(define-fun inv ((x Int) (y Int) (z Int)) Bool (and (= (+ x y) 10) (<= x 10) (>= z 0)))
(define-fun mid ((x Int) (y Int) (z Int)) Bool (<= x 10))
