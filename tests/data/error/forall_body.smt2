; A universal quantifier in a clause body is existential over the clause (issue 60: it was
; reported as an existential quantifier over a clause head).
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (and (forall ((z Int)) (> z x)) (= x 0)) (P x))))
(check-sat)
