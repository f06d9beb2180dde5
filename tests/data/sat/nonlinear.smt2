; Non-linear: the sum of two naturals is a natural.
; Invariants: nat(x) = x >= 0; sum(z) = z >= 0.
(set-logic HORN)
(declare-fun nat (Int) Bool)
(declare-fun sum (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (nat x))))
(assert (forall ((x Int)) (=> (nat x) (nat (+ x 1)))))
(assert (forall ((x Int) (y Int)) (=> (and (nat x) (nat y)) (sum (+ x y)))))
(assert (forall ((z Int)) (=> (and (sum z) (< z 0)) false)))
(check-sat)
