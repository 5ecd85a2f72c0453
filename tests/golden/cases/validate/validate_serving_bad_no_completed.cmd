args: validate --serving serving/bad/no_completed.json --model 70b --system aws-p4d
exit: 2
