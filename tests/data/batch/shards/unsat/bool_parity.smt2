; A Bool argument: b is the parity of x; assert not (b and x >= 3). Fails at x = 3.
(set-logic HORN)
(declare-fun inv (Bool Int) Bool)
(assert (inv false 0))
(assert (forall ((b Bool) (x Int)) (=> (inv b x) (inv (not b) (+ x 1)))))
(assert (forall ((b Bool) (x Int)) (=> (and (inv b x) b (>= x 3)) false)))
(check-sat)
