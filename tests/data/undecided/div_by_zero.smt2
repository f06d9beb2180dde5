; The query holds when (div 5 0) = 7, which SMT-LIB leaves unspecified (div is total, its value
; at 0 any integer): a counterexample for one interpretation is none for all, and no invariant
; the validator accepts excludes the query for every interpretation. The answer is unknown,
; with a reason that is not an internal error (issue 60: "derivation failed replay: division
; by zero" and "preprocessing could not translate the derivation back" reached users).
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 5) (P x))))
(assert (forall ((x Int) (y Int)) (=> (and (P x) (= y (div x 0)) (= y 7)) false)))
(check-sat)
