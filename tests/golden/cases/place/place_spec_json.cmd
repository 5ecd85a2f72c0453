args: place --model deepseek-r1 --system dgx-b200 --phase decode --tp 8 --spec mtp:2.4:3 --json
exit: 0
