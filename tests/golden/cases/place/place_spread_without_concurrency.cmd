args: place --model 70b --system dgx-h100 --tp 8 --spread 0.2
exit: 2
