args: place --model 70b --system dgx-h100 --rate 4 --prefix-hit 1.5
exit: 2
