args: place --model 70b --system dgx-h100 --phase decode --batch 32 --tp 4
exit: 0
