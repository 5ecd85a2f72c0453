args: place --model 70b --system dgx-h100 --phase decode --spec mtp:2.5
exit: 2
