; Found by the fuzzer: BMC refutes this at once on one thread while PDR, on the other, is in
; Z3's model-based projection; the interrupt made that call fail, and the z3 crate's panic
; (caught and handled) was printed on stderr. Failing run: p0(5) by the fact (5 >= 5), then
; p0(0) by the second clause (5 >= -1), and the query holds at x0 = 0.
(set-logic HORN)
(declare-fun p0 (Real) Bool)
(assert (forall ((y0 Real)) (=> (not (> (+ (* (- 1.0) y0) 5.0) 0.0)) (p0 y0))))
(assert (forall ((x0_0 Real) (y0 Real)) (=> (and (p0 x0_0) (<= (+ (* (- 1.0) x0_0) 5.0) 6.0)) (p0 y0))))
(assert (forall ((x0 Real)) (=> (and (p0 x0) (= (+ x0 1.0) 1.0)) false)))
(check-sat)
