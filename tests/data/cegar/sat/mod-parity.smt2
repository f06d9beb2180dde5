; x steps by 2 from 0: x mod 2 = 0 is the invariant (needs mod in a predicate).
(set-logic HORN)
(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int) (x1 Int)) (=> (and (inv x) (= x1 (+ x 2))) (inv x1))))
(assert (forall ((x Int)) (=> (and (inv x) (= (mod x 2) 1)) false)))
(check-sat)
