args: place --model 70b --system l40s-8
exit: 0
