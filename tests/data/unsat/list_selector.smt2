; p(l, s): l is s copies of 1 prepended to nil (s <= 3). The query asks for a list of three
; elements whose head is 1: reached after 3 steps, l = (cons 1 (cons 1 (cons 1 nil))).
(set-logic HORN)
(declare-datatypes ((IntList 0)) (((nil) (cons (head Int) (tail IntList)))))
(declare-fun p (IntList Int) Bool)
(assert (p nil 0))
(assert (forall ((l IntList) (s Int)) (=> (and (p l s) (< s 3)) (p (cons 1 l) (+ s 1)))))
(assert (forall ((l IntList) (s Int))
  (=> (and (p l s) (is-cons l) (= (head l) 1) ((_ is cons) (tail l)) (>= s 3)) false)))
(check-sat)
