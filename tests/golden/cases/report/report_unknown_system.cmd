args: report --model 70b --system no-such-system -o /tmp/icx-golden-review.html
exit: 2
