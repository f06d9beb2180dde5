; Fig. 1 of Karpenkov and Monniaux (HVC 2016): the sign of x is preserved by doubling.
;   int x = input(), p = input();
;   if (p) assume(x >= 0); else assume(x < 0);
;   for (int i = 0; i < input(); i++) x *= 2;
; Property: after any number of iterations, p != 0 implies x >= 0 (and p = 0 implies x < 0).
(set-logic HORN)
(declare-fun loop (Int Int Int) Bool)
(assert (forall ((x Int) (p Int) (i Int))
  (=> (and (= i 0) (or (and (not (= p 0)) (>= x 0)) (and (= p 0) (< x 0))))
      (loop x p i))))
(assert (forall ((x Int) (p Int) (i Int) (n Int))
  (=> (and (loop x p i) (< i n))
      (loop (* 2 x) p (+ i 1)))))
(assert (forall ((x Int) (p Int) (i Int))
  (=> (and (loop x p i) (not (= p 0)) (< x 0)) false)))
(assert (forall ((x Int) (p Int) (i Int))
  (=> (and (loop x p i) (= p 0) (>= x 0)) false)))
(check-sat)
