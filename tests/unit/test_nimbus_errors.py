from pycontrol.storm.nimbus_errors import explain


def test_a_reason_thrift_hid_gets_a_pointer_to_nimbus_and_its_leadership():
    line = ("Nimbus rejected topology 'x': java.lang.RuntimeException: org.apache.storm.thrift.TApplicationException: "
            "Internal error processing beginFileUpload")
    out = explain(line)
    assert out.startswith(line) and "nimbus.log" in out and "not the leader" in out
    assert explain(out) == out   # once only


def test_a_reason_nimbus_gave_stays_as_it_is():
    line = "Nimbus rejected topology 'x': AlreadyAliveException(msg:x is already alive)"
    assert explain(line) == line
