import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** DAP framing over stdin and stdout: `Content-Length: N\r\n\r\n{json}`. */
final class Wire {
    private final InputStream in;
    private final OutputStream out;
    private long seq = 1;

    Wire(InputStream in, OutputStream out) {
        this.in = in;
        this.out = out;
    }

    /** The next message, or null at the end of input. */
    @SuppressWarnings("unchecked")
    Map<String, Object> read() throws IOException {
        int length = -1;
        while (true) {
            String line = header();
            if (line == null) return null;
            if (line.isEmpty()) {
                if (length >= 0) break;
                continue;
            }
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("Content-Length")) {
                length = Integer.parseInt(line.substring(colon + 1).trim());
            }
        }
        byte[] body = in.readNBytes(length);
        if (body.length < length) return null;
        return (Map<String, Object>) Json.parse(new String(body, StandardCharsets.UTF_8));
    }

    private String header() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        while (true) {
            int c = in.read();
            if (c < 0) return null;
            if (c == '\n') break;
            if (c != '\r') b.write(c);
        }
        return b.toString(StandardCharsets.UTF_8);
    }

    synchronized void send(Map<String, Object> message) {
        message.put("seq", seq++);
        byte[] body = Json.write(message).getBytes(StandardCharsets.UTF_8);
        try {
            out.write(("Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
        } catch (IOException e) {
            Log.say("cannot write to the client: " + e);
        }
    }

    void event(String event, Map<String, Object> body) {
        send(Json.obj("type", "event", "event", event, "body", body));
    }

    void respond(Map<String, Object> request, Object body) {
        send(Json.obj("type", "response", "request_seq", request.get("seq"), "success", true,
                "command", request.get("command"), "body", body));
    }

    void fail(Map<String, Object> request, String message) {
        send(Json.obj("type", "response", "request_seq", request.get("seq"), "success", false,
                "command", request.get("command"), "message", message,
                "body", Json.obj("error", Json.obj("id", 1L, "format", message))));
    }

    void output(String category, String text) {
        event("output", Json.obj("category", category, "output", text));
    }
}

/** The server's own messages go to stderr: stdout is the protocol's. */
final class Log {
    static void say(String text) {
        System.err.println("pairdbg-java: " + text);
    }
}
