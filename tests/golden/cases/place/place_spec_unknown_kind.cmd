args: place --model 70b --system dgx-h100 --phase decode --spec medusa:1.5
exit: 2
