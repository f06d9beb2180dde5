; x starts at 0 and grows by 2: it is never 7. The natural invariant is parity, which PDR's
; lemmas (literals of the clauses) cannot state; seeded with `x mod 2 = 0`, PDR proves it at
; once. (Unseeded PDR now proves it too, with some 16 lemmas that exclude 7 without parity:
; the test checks that a seed is taken, not that PDR needs it.)
(set-logic HORN)
(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x) (= y (+ x 2))) (inv y))))
(assert (forall ((x Int)) (=> (and (inv x) (= x 7)) false)))
(check-sat)
