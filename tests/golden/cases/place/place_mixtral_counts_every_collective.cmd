args: place --model mixtral --system dgx-h100
exit: 0
