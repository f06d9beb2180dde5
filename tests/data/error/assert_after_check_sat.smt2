; An assertion after (check-sat) was used for the answer (unsat where Z3 answers the query
; before it: sat). One query per script: it is refused.
(set-logic HORN)
(declare-fun P (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (P x))))
(check-sat)
(assert (forall ((x Int)) (=> (P x) false)))
