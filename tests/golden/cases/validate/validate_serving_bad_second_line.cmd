args: validate --serving serving/bad/bad_second_line.jsonl --model 70b --system aws-p4d
exit: 2
