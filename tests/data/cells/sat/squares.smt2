; a[i] = (i - 1) * (i + 1) for every i < n, then a[i] - i*i, then + 1: every cell is 0. The
; cells' values are a polynomial of the index, fitted to the sampled cells (`v = k*k - 1`) and
; kept by the filter's degree-2 stage; `a[k] = -1` after the second loop holds only where the
; squares are known, and is tried again on top of them.
(set-logic HORN)
(declare-fun fill ((Array Int Int) Int Int) Bool)
(declare-fun sub ((Array Int Int) Int Int) Bool)
(declare-fun inc ((Array Int Int) Int Int) Bool)
(assert (forall ((a (Array Int Int)) (n Int)) (=> (> n 0) (fill a 0 n))))
(assert (forall ((a (Array Int Int)) (b (Array Int Int)) (i Int) (n Int))
  (=> (and (fill a i n) (< i n) (= b (store a i (* (- i 1) (+ i 1))))) (fill b (+ i 1) n))))
(assert (forall ((a (Array Int Int)) (i Int) (n Int))
  (=> (and (fill a i n) (>= i n)) (sub a 0 n))))
(assert (forall ((a (Array Int Int)) (b (Array Int Int)) (i Int) (n Int))
  (=> (and (sub a i n) (< i n) (= b (store a i (- (select a i) (* i i))))) (sub b (+ i 1) n))))
(assert (forall ((a (Array Int Int)) (i Int) (n Int))
  (=> (and (sub a i n) (>= i n)) (inc a 0 n))))
(assert (forall ((a (Array Int Int)) (b (Array Int Int)) (i Int) (n Int))
  (=> (and (inc a i n) (< i n) (= b (store a i (+ (select a i) 1)))) (inc b (+ i 1) n))))
(assert (forall ((a (Array Int Int)) (x Int) (i Int) (n Int))
  (=> (and (inc a i n) (>= i n) (>= x 0) (< x n) (not (= (select a x) 0))) false)))
(check-sat)
