; A Bool argument and ite: b flips every step; x grows by 1 when b, else stays.
; Invariant: x >= 0.
(set-logic HORN)
(declare-fun inv (Bool Int) Bool)
(assert (inv false 0))
(assert (forall ((b Bool) (x Int)) (=> (inv b x) (inv (not b) (ite b (+ x 1) x)))))
(assert (forall ((b Bool) (x Int)) (=> (and (inv b x) (< x 0)) false)))
(check-sat)
