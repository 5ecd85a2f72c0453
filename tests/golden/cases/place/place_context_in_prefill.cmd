args: place --model 70b --system dgx-h100 --context 5
exit: 2
