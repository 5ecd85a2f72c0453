args: validate --serving serving/bad/zero_completed.json --model 70b --system aws-p4d
exit: 2
