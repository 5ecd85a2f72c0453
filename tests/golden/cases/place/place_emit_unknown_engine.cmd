args: place --model 70b --system dgx-h100 --emit foo
exit: 2
