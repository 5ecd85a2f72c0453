args: report --model 70b --system dgx-h100
exit: 2
