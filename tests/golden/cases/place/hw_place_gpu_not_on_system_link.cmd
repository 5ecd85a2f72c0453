args: place --model 70b --system dgx-h100 --gpu mi300x
exit: 2
