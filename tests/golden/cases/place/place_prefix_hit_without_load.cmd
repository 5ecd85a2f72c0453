args: place --model 70b --system dgx-h100 --prefix-hit 0.5
exit: 2
