(define-fun inv ((x Int) (y Int)) Bool (= (mod x 2) 0))
