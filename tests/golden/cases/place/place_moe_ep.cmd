args: place --model mixtral-8x7b --system dgx-h100
exit: 0
