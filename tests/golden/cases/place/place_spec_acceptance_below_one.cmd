args: place --model 70b --system dgx-h100 --phase decode --spec eagle:0.5:2
exit: 2
