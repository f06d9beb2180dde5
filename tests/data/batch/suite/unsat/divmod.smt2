; div and mod: x := 100; while (x > 0) x := x div 3; assert x mod 4 != 3.
; Values 100, 33, 11: 11 mod 4 = 3 fails after 2 steps.
(set-logic HORN)
(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x 100) (inv x))))
(assert (forall ((x Int)) (=> (and (inv x) (> x 0)) (inv (div x 3)))))
(assert (forall ((x Int)) (=> (and (inv x) (= (mod x 4) 3)) false)))
(check-sat)
