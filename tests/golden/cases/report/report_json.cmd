args: report --model 70b --system dgx-h100 --top 3 --json
exit: 0
