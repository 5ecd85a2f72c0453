args: place --model 70b --system dgx-h900
exit: 2
