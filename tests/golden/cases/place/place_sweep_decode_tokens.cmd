args: place --model 70b --system dgx-h100 --phase decode --sweep tokens=1:2
exit: 2
