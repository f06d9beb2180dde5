; As sat/two_phases.smt2, but the second loop steps by 2 from odd i, so it overshoots to -1.
; Failing run: n = 1, up 0 1 → up 1 1 → down 1 → down -1.
(set-logic HORN)
(declare-fun up (Int Int) Bool)
(declare-fun down (Int) Bool)
(assert (forall ((n Int)) (=> (>= n 0) (up 0 n))))
(assert (forall ((i Int) (n Int)) (=> (and (up i n) (< i n)) (up (+ i 1) n))))
(assert (forall ((i Int) (n Int)) (=> (and (up i n) (>= i n)) (down i))))
(assert (forall ((i Int)) (=> (and (down i) (> i 0)) (down (- i 2)))))
(assert (forall ((i Int)) (=> (and (down i) (< i 0)) false)))
(check-sat)
